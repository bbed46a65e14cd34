/** GitLab access levels. */
export const AccessLevel = {
  NONE: 0,
  MINIMAL: 5,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
} as const;

export const VALID_MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50];
export const VISIBILITIES = ["private", "internal", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const VISIBILITY_RANK: Record<string, number> = { private: 0, internal: 10, public: 20 };

/** Levels named by project_creation_level / subgroup_creation_level. */
export const CREATION_LEVEL: Record<string, number> = {
  noone: 1000,
  owner: AccessLevel.OWNER,
  maintainer: AccessLevel.MAINTAINER,
  developer: AccessLevel.DEVELOPER,
};
