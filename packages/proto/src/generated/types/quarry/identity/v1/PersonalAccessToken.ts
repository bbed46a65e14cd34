// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A personal access token (the clear value only on creation).
 */
export interface PersonalAccessToken {
  /**
   * Token id.
   */
  'id'?: (number | string | Long);
  /**
   * Name.
   */
  'name'?: (string);
  /**
   * Whether it was revoked.
   */
  'revoked'?: (boolean);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt'?: (string);
  /**
   * Description or empty.
   */
  'description'?: (string);
  /**
   * Scopes.
   */
  'scopes'?: (string)[];
  /**
   * Owner.
   */
  'userId'?: (number | string | Long);
  /**
   * Last use, ISO 8601, or empty.
   */
  'lastUsedAt'?: (string);
  /**
   * Not revoked and not expired.
   */
  'active'?: (boolean);
  /**
   * Expiry date YYYY-MM-DD or empty.
   */
  'expiresAt'?: (string);
  /**
   * The token in clear: set only in the creation response.
   */
  'token'?: (string);
}

/**
 * A personal access token (the clear value only on creation).
 */
export interface PersonalAccessToken__Output {
  /**
   * Token id.
   */
  'id': (number);
  /**
   * Name.
   */
  'name': (string);
  /**
   * Whether it was revoked.
   */
  'revoked': (boolean);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt': (string);
  /**
   * Description or empty.
   */
  'description': (string);
  /**
   * Scopes.
   */
  'scopes': (string)[];
  /**
   * Owner.
   */
  'userId': (number);
  /**
   * Last use, ISO 8601, or empty.
   */
  'lastUsedAt': (string);
  /**
   * Not revoked and not expired.
   */
  'active': (boolean);
  /**
   * Expiry date YYYY-MM-DD or empty.
   */
  'expiresAt': (string);
  /**
   * The token in clear: set only in the creation response.
   */
  'token': (string);
}
