// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A group (a namespace of kind "group").
 */
export interface Group {
  /**
   * Group id.
   */
  'id'?: (number | string | Long);
  /**
   * Name.
   */
  'name'?: (string);
  /**
   * Path segment.
   */
  'path'?: (string);
  /**
   * Description.
   */
  'description'?: (string);
  /**
   * "public", "internal" or "private".
   */
  'visibility'?: (string);
  /**
   * Full path of names, e.g. "Parent / Child".
   */
  'fullName'?: (string);
  /**
   * Full path, e.g. "parent/child".
   */
  'fullPath'?: (string);
  /**
   * Parent id; 0 for top-level.
   */
  'parentId'?: (number | string | Long);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt'?: (string);
  /**
   * Whether users may request access.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * Who may create projects: "noone", "owner", "maintainer", "developer".
   */
  'projectCreationLevel'?: (string);
  /**
   * Who may create subgroups: "owner" or "maintainer".
   */
  'subgroupCreationLevel'?: (string);
  /**
   * The caller's effective access level in the group (0 = none).
   */
  'callerAccessLevel'?: (number);
  /**
   * Default branch for new projects in the group, or empty.
   */
  'defaultBranch'?: (string);
}

/**
 * A group (a namespace of kind "group").
 */
export interface Group__Output {
  /**
   * Group id.
   */
  'id': (number);
  /**
   * Name.
   */
  'name': (string);
  /**
   * Path segment.
   */
  'path': (string);
  /**
   * Description.
   */
  'description': (string);
  /**
   * "public", "internal" or "private".
   */
  'visibility': (string);
  /**
   * Full path of names, e.g. "Parent / Child".
   */
  'fullName': (string);
  /**
   * Full path, e.g. "parent/child".
   */
  'fullPath': (string);
  /**
   * Parent id; 0 for top-level.
   */
  'parentId': (number);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt': (string);
  /**
   * Whether users may request access.
   */
  'requestAccessEnabled': (boolean);
  /**
   * Who may create projects: "noone", "owner", "maintainer", "developer".
   */
  'projectCreationLevel': (string);
  /**
   * Who may create subgroups: "owner" or "maintainer".
   */
  'subgroupCreationLevel': (string);
  /**
   * The caller's effective access level in the group (0 = none).
   */
  'callerAccessLevel': (number);
  /**
   * Default branch for new projects in the group, or empty.
   */
  'defaultBranch': (string);
}
