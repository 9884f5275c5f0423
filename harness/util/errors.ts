/** Re-exported: the one errorMessage, beside the project's errors (harness/errors.ts). */
export { errorMessage } from '../errors.js';
