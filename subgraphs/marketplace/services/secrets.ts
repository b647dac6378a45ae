/** The platform's box for upstream secrets (SECRETS_KEY) lives in shared/, where the OAuth tokens use it too. */
export { secretBoxOf } from '../../../shared/secret-box.js';
