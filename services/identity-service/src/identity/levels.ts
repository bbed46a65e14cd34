import { AccessLevel } from "@quarry/gitlab";

/** Levels named by project_creation_level / subgroup_creation_level. */
export const CREATION_LEVEL: Record<string, number> = {
  noone: 1000,
  owner: AccessLevel.OWNER,
  maintainer: AccessLevel.MAINTAINER,
  developer: AccessLevel.DEVELOPER,
};
