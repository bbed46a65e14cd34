/** GitLab's ids are PostgreSQL `integer`s: the largest one there can be. */
export const MAX_INT32 = 2_147_483_647;

/** Whether a number can be a row id: a positive 32-bit integer (else no row can match). */
export const isPositiveInt32 = (value: number): boolean => Number.isInteger(value) && value >= 1 && value <= MAX_INT32;
