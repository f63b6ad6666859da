import { Link, Problem } from '../components.js';
import { paths } from '../router.js';

export function MissingPage({ path }: { path: string }) {
  return (
    <>
      <h1>No such page</h1>
      <Problem error={`The explorer has no page at ${path}.`} />
      <p>
        Back to <Link href={paths.home()}>the latest ledgers</Link>, or search above.
      </p>
    </>
  );
}
