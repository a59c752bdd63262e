/** `name{label="value",…}` as PromQL writes a series, labels sorted, cut at `maxLength` characters. */
export function seriesName(labels: Record<string, string>, maxLength = 160): string {
  const { __name__: name = '', ...rest } = labels;
  const pairs = Object.keys(rest)
    .sort()
    .map((key) => `${key}=${JSON.stringify(rest[key])}`);
  const text = pairs.length || !name ? `${name}{${pairs.join(',')}}` : name;
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** "a, b, c and 4 more": the first `limit` items of a list, for summaries. */
export function firstOf(items: readonly string[], limit: number): string {
  const shown = items.slice(0, limit).join(', ');
  return items.length > limit ? `${shown} and ${items.length - limit} more` : shown;
}

/** "1 series", "2 series", "1 target", "3 targets". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
