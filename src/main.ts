#!/usr/bin/env node
// The `zenith` command line. Exit codes: 0 done, 1 runtime failure (a Node.js too old included), 2 bad
// usage or configuration.
//
// The Node version is checked before anything else is loaded: @stellar/stellar-sdk needs Node 22.12+,
// and an older node (the system's `/usr/bin/node dist/main.js`) would otherwise fail somewhere inside
// it. `npm start` and `npx zenith` run on the project's own Node 22 (the `node` package), so this file
// imports nothing statically and loads the command line only once the version is known to be good.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `zenith: Node.js ${process.versions.node} is too old (Zenith needs 22.12 or later): run it with \`npm start\` or \`npx zenith\`, which use the project's Node 22\n`,
  );
  process.exit(1);
}

const { runCli } = await import('./cli/program.js');
process.exitCode = await runCli(process.argv.slice(2));
