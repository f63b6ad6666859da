// npm run schema: rewrites schema.graphql from the Pothos schema.
import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/api/schema/printed.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema());
