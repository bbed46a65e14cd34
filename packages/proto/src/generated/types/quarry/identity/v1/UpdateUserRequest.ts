// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { UserProfile as _quarry_identity_v1_UserProfile, UserProfile__Output as _quarry_identity_v1_UserProfile__Output } from '../../../quarry/identity/v1/UserProfile';
import type { Long } from '@grpc/proto-loader';

/**
 * Updates a user (administrators, or the user for profile fields).
 */
export interface UpdateUserRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * User id.
   */
  'id'?: (number | string | Long);
  /**
   * New username.
   */
  'username'?: (string);
  /**
   * New e-mail.
   */
  'email'?: (string);
  /**
   * New display name.
   */
  'name'?: (string);
  /**
   * New password.
   */
  'password'?: (string);
  /**
   * Administrator flag (administrators only).
   */
  'admin'?: (boolean);
  /**
   * Profile fields.
   */
  'profile'?: (_quarry_identity_v1_UserProfile | null);
  /**
   * External flag.
   */
  'external'?: (boolean);
  /**
   * Group creation permission.
   */
  'canCreateGroup'?: (boolean);
  /**
   * Projects limit.
   */
  'projectsLimit'?: (number);
  '_username'?: "username";
  '_email'?: "email";
  '_name'?: "name";
  '_password'?: "password";
  '_admin'?: "admin";
  '_external'?: "external";
  '_canCreateGroup'?: "canCreateGroup";
  '_projectsLimit'?: "projectsLimit";
}

/**
 * Updates a user (administrators, or the user for profile fields).
 */
export interface UpdateUserRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * User id.
   */
  'id': (number);
  /**
   * New username.
   */
  'username'?: (string);
  /**
   * New e-mail.
   */
  'email'?: (string);
  /**
   * New display name.
   */
  'name'?: (string);
  /**
   * New password.
   */
  'password'?: (string);
  /**
   * Administrator flag (administrators only).
   */
  'admin'?: (boolean);
  /**
   * Profile fields.
   */
  'profile': (_quarry_identity_v1_UserProfile__Output | null);
  /**
   * External flag.
   */
  'external'?: (boolean);
  /**
   * Group creation permission.
   */
  'canCreateGroup'?: (boolean);
  /**
   * Projects limit.
   */
  'projectsLimit'?: (number);
  '_username'?: "username";
  '_email'?: "email";
  '_name'?: "name";
  '_password'?: "password";
  '_admin'?: "admin";
  '_external'?: "external";
  '_canCreateGroup'?: "canCreateGroup";
  '_projectsLimit'?: "projectsLimit";
}
