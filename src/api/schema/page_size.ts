// How many records one page holds: GraphQL's first/last and REST's limit, and the ids one `nodes`
// query may name. Apart from paging.ts so the builder can read it (paging.ts needs the builder).
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 10;
