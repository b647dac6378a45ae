// A process that stops on signals as the platform does (stopOnSignals), around a fake start whose
// close() `fails` or `hangs`: `node dist/test/support/stopping-process.js <fails|hangs|hangs-idle> <graceMs> [restMs]`.
// It keeps a timer open, as the platform keeps its server (`hangs-idle`: nothing), and logs `started` once its handlers are in.
import { createLogger } from '../../shared/logger.js';
import { stopOnSignals } from '../../shared/stop-on-signals.js';

const [how, grace, rest] = process.argv.slice(2);
const close =
  how === 'fails' ? () => Promise.reject(new Error('the database stopped answering')) : () => new Promise<void>(() => undefined);
const log = createLogger('info');
const keepAlive = setInterval(() => undefined, 60_000);
// `hangs-idle`: once signalled, nothing but the stop itself is left running.
if (how === 'hangs-idle') process.once('SIGTERM', () => clearInterval(keepAlive));
stopOnSignals(Promise.resolve({ close }), log, Number(grace), rest === undefined ? undefined : Number(rest));
log.info('started');
