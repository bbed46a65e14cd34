// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A user account.
 */
export interface User {
  /**
   * User id.
   */
  'id'?: (number | string | Long);
  /**
   * Unique login name (case-insensitive unique).
   */
  'username'?: (string);
  /**
   * Display name.
   */
  'name'?: (string);
  /**
   * Primary e-mail (only shown to administrators and the user).
   */
  'email'?: (string);
  /**
   * "active" or "blocked".
   */
  'state'?: (string);
  /**
   * Instance administrator flag.
   */
  'isAdmin'?: (boolean);
  /**
   * Profile: biography.
   */
  'bio'?: (string);
  /**
   * Profile: location.
   */
  'location'?: (string);
  /**
   * Profile: public e-mail.
   */
  'publicEmail'?: (string);
  /**
   * Profile: web site.
   */
  'websiteUrl'?: (string);
  /**
   * Profile: organization.
   */
  'organization'?: (string);
  /**
   * Profile: job title.
   */
  'jobTitle'?: (string);
  /**
   * The id of the user's personal namespace.
   */
  'namespaceId'?: (number | string | Long);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt'?: (string);
  /**
   * Who created the account (0 when self-registered or bootstrap).
   */
  'createdById'?: (number | string | Long);
  /**
   * Whether the account is a bot.
   */
  'bot'?: (boolean);
  /**
   * Last sign-in time, ISO 8601, or empty.
   */
  'lastSignInAt'?: (string);
  /**
   * Confirmation time, ISO 8601, or empty.
   */
  'confirmedAt'?: (string);
  /**
   * Last activity date (YYYY-MM-DD), or empty.
   */
  'lastActivityOn'?: (string);
  /**
   * Whether the user may create top-level groups.
   */
  'canCreateGroup'?: (boolean);
  /**
   * Maximum personal projects.
   */
  'projectsLimit'?: (number);
  /**
   * External users see only what they are members of.
   */
  'external'?: (boolean);
  /**
   * Whether the profile is private.
   */
  'privateProfile'?: (boolean);
  /**
   * Pronouns.
   */
  'pronouns'?: (string);
  /**
   * Administrator note.
   */
  'note'?: (string);
}

/**
 * A user account.
 */
export interface User__Output {
  /**
   * User id.
   */
  'id': (number);
  /**
   * Unique login name (case-insensitive unique).
   */
  'username': (string);
  /**
   * Display name.
   */
  'name': (string);
  /**
   * Primary e-mail (only shown to administrators and the user).
   */
  'email': (string);
  /**
   * "active" or "blocked".
   */
  'state': (string);
  /**
   * Instance administrator flag.
   */
  'isAdmin': (boolean);
  /**
   * Profile: biography.
   */
  'bio': (string);
  /**
   * Profile: location.
   */
  'location': (string);
  /**
   * Profile: public e-mail.
   */
  'publicEmail': (string);
  /**
   * Profile: web site.
   */
  'websiteUrl': (string);
  /**
   * Profile: organization.
   */
  'organization': (string);
  /**
   * Profile: job title.
   */
  'jobTitle': (string);
  /**
   * The id of the user's personal namespace.
   */
  'namespaceId': (number);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt': (string);
  /**
   * Who created the account (0 when self-registered or bootstrap).
   */
  'createdById': (number);
  /**
   * Whether the account is a bot.
   */
  'bot': (boolean);
  /**
   * Last sign-in time, ISO 8601, or empty.
   */
  'lastSignInAt': (string);
  /**
   * Confirmation time, ISO 8601, or empty.
   */
  'confirmedAt': (string);
  /**
   * Last activity date (YYYY-MM-DD), or empty.
   */
  'lastActivityOn': (string);
  /**
   * Whether the user may create top-level groups.
   */
  'canCreateGroup': (boolean);
  /**
   * Maximum personal projects.
   */
  'projectsLimit': (number);
  /**
   * External users see only what they are members of.
   */
  'external': (boolean);
  /**
   * Whether the profile is private.
   */
  'privateProfile': (boolean);
  /**
   * Pronouns.
   */
  'pronouns': (string);
  /**
   * Administrator note.
   */
  'note': (string);
}
