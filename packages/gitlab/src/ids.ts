/** GitLab's ids are PostgreSQL `integer`s: the largest one there can be. */
export const MAX_INT32 = 2_147_483_647;

/** Whether a number can be a row id: a positive 32-bit integer (else no row can match). */
export const isPositiveInt32 = (value: number): boolean => Number.isInteger(value) && value >= 1 && value <= MAX_INT32;

/**
 * The row id an `:id_or_path` names when it is all digits (GitLab looks such a value up by id), or
 * undefined when it is a path or name. A number no row can have becomes 0, which matches nothing,
 * instead of an out-of-range query.
 */
export const numericRowId = (idOrPath: string): number | undefined => {
  if (!/^\d+$/.test(idOrPath)) return undefined;
  const id = Number(idOrPath);
  return isPositiveInt32(id) ? id : 0;
};
