/** Rows about the owner's collections (their order kept), gathered per collection: the dashboard's lists. */
export function perCollection<R extends { supercuration_id: string; title: string }>(rows: readonly R[]): { supercurationId: string; title: string; rows: R[] }[] {
  const groups = new Map<string, { supercurationId: string; title: string; rows: R[] }>();
  for (const r of rows) {
    let group = groups.get(r.supercuration_id);
    if (!group) {
      group = { supercurationId: r.supercuration_id, title: r.title, rows: [] };
      groups.set(r.supercuration_id, group);
    }
    group.rows.push(r);
  }
  return [...groups.values()];
}
