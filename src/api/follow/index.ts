export { followChanges } from './changes.js';
export { Follower } from './follower.js';
export { followKeyset, type Keyset } from './keyset.js';
