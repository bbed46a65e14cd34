/** Offset pagination defaults shared by list RPCs: page ≥ 1, per_page 1..100 (default 20). */
export function paging(page?: { page?: number; perPage?: number } | null) {
  const p = Math.max(1, page?.page || 1);
  const perPage = Math.min(100, Math.max(1, page?.perPage || 20));
  return { page: p, perPage, skip: (p - 1) * perPage, take: perPage };
}

export function pageInfo(total: number, p: { page: number; perPage: number }) {
  return { total, page: p.page, perPage: p.perPage };
}
