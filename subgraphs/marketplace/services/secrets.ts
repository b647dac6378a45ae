/** The platform's box for upstream secrets (SECRETS_KEY). */
export { secretBoxOf } from '../../../shared/secret-box.js';
