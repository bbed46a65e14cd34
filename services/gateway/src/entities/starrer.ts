import type { Starrer__Output as Starrer } from "@quarry/proto/types/identity/v1/Starrer";
import type { Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

/** GitLab's API::Entities::Starrers: when the star was given and who gave it. */
export function starrerEntity(s: Starrer, urls: Urls) {
  return { starred_since: s.starredSince, user: userBasic(s.user!, urls) };
}
