// The manifest of test/fixtures/stellar-core-lcm/ (written by scripts/stellar_core_lcm.ts): where each
// stellar-core test case's ledger meta lies in cases.bin.zst once decompressed.

export interface CoreLcmCase {
  /** the test suite's folder in stellar-core's test-lcm-current/ */
  suite: string;
  file: string;
  /** the test case, from the suite's index.json */
  name: string;
  offset: number;
  length: number;
}

export interface CoreLcmManifest {
  source: string;
  networkPassphrase: string;
  bytes: number;
  /** files the mirror the fixture was packed from did not hold */
  absent: string[];
  cases: CoreLcmCase[];
}
