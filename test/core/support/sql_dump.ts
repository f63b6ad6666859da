// Reads the plain `INSERT INTO t VALUES (...);` statements of a pg_dump (no database needed).
import fs from 'node:fs';

export type SqlValue = string | number | bigint | null;

function parseValues(s: string): SqlValue[] {
  const out: SqlValue[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === ',') {
      i++;
    } else if (c === "'") {
      let v = '';
      i++;
      for (;;) {
        const d = s[i]!;
        if (d === "'") {
          if (s[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += d;
        i++;
      }
      out.push(v);
    } else {
      let j = i;
      while (j < s.length && s[j] !== ',') j++;
      const tok = s.slice(i, j).trim();
      if (tok === 'NULL') out.push(null);
      else if (tok === 'true' || tok === 'false') out.push(tok);
      else if (/[.eE]/.test(tok)) out.push(Number(tok));
      else {
        const b = BigInt(tok);
        out.push(b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b);
      }
      i = j;
    }
  }
  return out;
}

export type SqlRow = Record<string, SqlValue>;

/** Rows per table, keyed by the column names of the dump's CREATE TABLE. */
export function readInserts(file: string): Map<string, SqlRow[]> {
  const tables = new Map<string, SqlRow[]>();
  const columns = new Map<string, string[]>();
  let creating: string | null = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const c = /^CREATE TABLE (?:public\.)?(\w+) \($/.exec(line);
    if (c) {
      creating = c[1]!;
      columns.set(creating, []);
      continue;
    }
    if (creating) {
      if (line.startsWith(')')) creating = null;
      else {
        const col = /^\s+"?(\w+)"? /.exec(line);
        if (col && col[1] !== 'CONSTRAINT') columns.get(creating)!.push(col[1]!);
      }
      continue;
    }
    const m = /^INSERT INTO (\w+) VALUES \((.*)\);$/.exec(line);
    if (!m) continue;
    const names = columns.get(m[1]!) ?? [];
    const values = parseValues(m[2]!);
    const row: SqlRow = {};
    values.forEach((v, i) => {
      row[names[i] ?? `c${i}`] = v;
    });
    const rows = tables.get(m[1]!) ?? [];
    rows.push(row);
    tables.set(m[1]!, rows);
  }
  return tables;
}
