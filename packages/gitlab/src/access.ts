/** GitLab's access levels (Gitlab::Access), as numbers on the wire and in the database. */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL: 5,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  /** Gitlab::Access::ADMIN: what protected-branch rules see for an instance admin. */
  ADMIN: 60,
} as const;
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];

/** Gitlab::Access.options_with_owner plus Minimal Access and Planner: the human names of the levels. */
export const ACCESS_LEVEL_NAMES: Readonly<Record<number, string>> = {
  [AccessLevel.NO_ACCESS]: "No access",
  [AccessLevel.MINIMAL]: "Minimal Access",
  [AccessLevel.GUEST]: "Guest",
  [AccessLevel.PLANNER]: "Planner",
  [AccessLevel.REPORTER]: "Reporter",
  [AccessLevel.DEVELOPER]: "Developer",
  [AccessLevel.MAINTAINER]: "Maintainer",
  [AccessLevel.OWNER]: "Owner",
  [AccessLevel.ADMIN]: "Admin",
};

/** The name of a level (`40` → "Maintainer"), or undefined for a number that is no level. */
export const accessLevelName = (level: number): string | undefined => ACCESS_LEVEL_NAMES[level];

/** The level of a name, case-insensitively (`"maintainer"` → 40), or undefined. */
export function accessLevelOf(name: string): number | undefined {
  const wanted = name.toLowerCase();
  for (const [level, n] of Object.entries(ACCESS_LEVEL_NAMES)) if (n.toLowerCase() === wanted) return Number(level);
  return undefined;
}

/** The levels a project or group member may have (Gitlab::Access.all_values with Minimal Access). */
export const MEMBER_ACCESS_LEVELS: readonly number[] = [
  AccessLevel.MINIMAL,
  AccessLevel.GUEST,
  AccessLevel.PLANNER,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MAINTAINER,
  AccessLevel.OWNER,
];

/** A group's project_creation_level values: who may create projects in it (`noone` … `developer`). */
export const PROJECT_CREATION_LEVELS = ["noone", "owner", "maintainer", "developer"] as const;
/** A group's subgroup_creation_level values: who may create subgroups in it. */
export const SUBGROUP_CREATION_LEVELS = ["owner", "maintainer"] as const;
