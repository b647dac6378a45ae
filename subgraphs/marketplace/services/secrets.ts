import { SecretBox } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';

const boxes = new Map<string, SecretBox>();

/** The platform's box for upstream secrets (SECRETS_KEY). */
export function secretBoxOf(services: PlatformServices): SecretBox {
  const key = services.config.secrets.SECRETS_KEY;
  let box = boxes.get(key);
  if (!box) boxes.set(key, (box = new SecretBox(key)));
  return box;
}
