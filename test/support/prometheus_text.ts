// Prometheus' text format read by a parser of its own (parse-prometheus-text-format, a port of the
// Python client's parser), so the admin port is checked as a scraper reads it. The package ships
// no types: its output is described here. It folds all the series of a histogram into one sample
// without labels, so a histogram's `_count` series are read a second time, by the same parser, as
// untyped series (which keep their labels): `series()`.
import { createRequire } from 'node:module';

export interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}

export interface Family {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Sample[];
}

const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

export interface Scraped {
  families: Map<string, Family>;
  /** every histogram's `<name>_count` series, with labels */
  counts: Map<string, Sample[]>;
}

export function parsePrometheusText(text: string): Scraped {
  const families = new Map(parse(text).map((family) => [family.name, family]));
  const histograms = [...families.values()].filter((family) => family.type === 'HISTOGRAM').map((family) => `${family.name}_count`);
  const countLines = text
    .split('\n')
    .filter((line) => histograms.some((name) => line.startsWith(`${name}{`) || line.startsWith(`${name} `)));
  const counts = new Map<string, Sample[]>();
  for (const family of parse(`${countLines.join('\n')}\n`))
    counts.set(family.name, [...(counts.get(family.name) ?? []), ...family.metrics]);
  return { families, counts };
}

/** GET /metrics of an admin port, parsed */
export async function scrape(adminPort: number): Promise<Scraped> {
  const response = await fetch(`http://127.0.0.1:${adminPort}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  if (!/^text\/plain; version=0\.0\.4/.test(response.headers.get('content-type') ?? '')) {
    throw new Error(`/metrics is ${response.headers.get('content-type')}`);
  }
  return parsePrometheusText(await response.text());
}

/** the samples of a family (a histogram's: its `_count` series) whose labels include `labels` */
export function samples(scraped: Scraped, name: string, labels: Record<string, string> = {}): Sample[] {
  const family = scraped.families.get(name);
  if (!family) throw new Error(`no metric ${name}`);
  const all = family.type === 'HISTOGRAM' ? (scraped.counts.get(`${name}_count`) ?? []) : family.metrics;
  return all.filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value));
}

/** a counter's or gauge's value (a histogram's count) summed over the matching samples */
export function total(scraped: Scraped, name: string, labels: Record<string, string> = {}): number {
  return samples(scraped, name, labels).reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
}
