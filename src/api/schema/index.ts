export { schema } from './schema.js';
