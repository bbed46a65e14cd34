/** GitLab's visibility names (Gitlab::VisibilityLevel), from most closed to most open. */
export const VISIBILITIES = ["private", "internal", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Name → Gitlab::VisibilityLevel number: PRIVATE 0, INTERNAL 10, PUBLIC 20. */
export const VISIBILITY_LEVEL: Readonly<Record<string, number>> = { private: 0, internal: 10, public: 20 };

export const isVisibility = (value: string): value is Visibility => (VISIBILITIES as readonly string[]).includes(value);

/** Number → name (`10` → "internal"), or undefined for a number that is no level. */
export const visibilityName = (level: number): Visibility | undefined => VISIBILITIES.find((v) => VISIBILITY_LEVEL[v] === level);
