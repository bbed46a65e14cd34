// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from '../../../quarry/identity/v1/User';
import type { Long } from '@grpc/proto-loader';

/**
 * The principal behind a valid token.
 */
export interface AuthenticateResponse {
  /**
   * The token's owner.
   */
  'user'?: (_quarry_identity_v1_User | null);
  /**
   * The token id.
   */
  'tokenId'?: (number | string | Long);
  /**
   * The token's scopes (api, read_api, read_user, read_repository, write_repository, sudo).
   */
  'scopes'?: (string)[];
  /**
   * Expiry date (YYYY-MM-DD) or empty.
   */
  'expiresAt'?: (string);
}

/**
 * The principal behind a valid token.
 */
export interface AuthenticateResponse__Output {
  /**
   * The token's owner.
   */
  'user': (_quarry_identity_v1_User__Output | null);
  /**
   * The token id.
   */
  'tokenId': (number);
  /**
   * The token's scopes (api, read_api, read_user, read_repository, write_repository, sudo).
   */
  'scopes': (string)[];
  /**
   * Expiry date (YYYY-MM-DD) or empty.
   */
  'expiresAt': (string);
}
