// A PostgreSQL primary and its streaming replica, started and stopped by a test: two clusters of
// the machine's PostgreSQL 15 in a scratch folder, on ports of their own (the shared server at
// 5432 allows no replication connections). The replica is made as an operator makes one:
// pg_basebackup -R from the primary, then started as a hot standby that replays its WAL stream.
// PostgreSQL refuses to run as root: everything runs as the `postgres` user.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, spawnProcess, type TestProcess } from './processes.js';

const BIN = '/usr/lib/postgresql/15/bin';

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** the replica stops replaying (what it shows stays as it is) until `resumeReplay` */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  stop(): Promise<void>;
}

const asPostgres = (command: string, args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, command), ...args], { stdio: 'pipe' });

async function start(dataDir: string, port: number, socketDir: string): Promise<TestProcess> {
  const server = spawnProcess('runuser', [
    '-u',
    'postgres',
    '--',
    join(BIN, 'postgres'),
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    socketDir,
  ]);
  await server.waitForLine(/database system is ready to accept (read-only )?connections/, { stream: 'stderr', timeoutMs: 60_000 });
  return server;
}

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const root = mkdtempSync(join(tmpdir(), 'zenith-replica-'));
  chownSync(root, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const servers: TestProcess[] = [];
  const stop = async () => {
    // fast shutdown (SIGINT): clients are disconnected, nothing waits for them
    for (const server of servers.reverse()) await server.stop('SIGINT');
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // initdb's pg_hba trusts local and 127.0.0.1 connections, replication ones included
    asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    appendFileSync(`${primaryDir}/postgresql.conf`, "\nlisten_addresses = '127.0.0.1'\nfsync = off\nwal_level = replica\n");
    servers.push(await start(primaryDir, primaryPort, root));
    asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream']);
    servers.push(await start(replicaDir, replicaPort, root));
  } catch (error) {
    await stop();
    throw error;
  }
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl,
    pauseReplay: () => sql(replicaUrl, 'SELECT pg_wal_replay_pause()'),
    resumeReplay: () => sql(replicaUrl, 'SELECT pg_wal_replay_resume()'),
    stop,
  };
}
