// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Long } from '@grpc/proto-loader';

/**
 * The caller on whose behalf a request is made. The gateway fills it from the
 * authenticated token; identity-service enforces visibility and roles with it.
 */
export interface Actor {
  /**
   * Authenticated user id; 0 means anonymous.
   */
  'userId'?: (number | string | Long);
  /**
   * Whether the user is an instance administrator (bypasses role checks).
   */
  'isAdmin'?: (boolean);
}

/**
 * The caller on whose behalf a request is made. The gateway fills it from the
 * authenticated token; identity-service enforces visibility and roles with it.
 */
export interface Actor__Output {
  /**
   * Authenticated user id; 0 means anonymous.
   */
  'userId': (number);
  /**
   * Whether the user is an instance administrator (bypasses role checks).
   */
  'isAdmin': (boolean);
}
