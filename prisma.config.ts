// Prisma CLI configuration. Only `prisma generate` is used: the DDL is hand-written in
// prisma/migrations and applied by the service itself (src/db/migrate.ts).
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
