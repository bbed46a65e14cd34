// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { UserProfile as _quarry_identity_v1_UserProfile, UserProfile__Output as _quarry_identity_v1_UserProfile__Output } from '../../../quarry/identity/v1/UserProfile';

/**
 * Creates a user (administrators only).
 */
export interface CreateUserRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Login name.
   */
  'username'?: (string);
  /**
   * E-mail address.
   */
  'email'?: (string);
  /**
   * Display name.
   */
  'name'?: (string);
  /**
   * Password in clear; stored only as a salted scrypt digest. Empty = no password login.
   */
  'password'?: (string);
  /**
   * Make the user an administrator.
   */
  'admin'?: (boolean);
  /**
   * Mark the e-mail as confirmed.
   */
  'skipConfirmation'?: (boolean);
  /**
   * Optional profile fields.
   */
  'profile'?: (_quarry_identity_v1_UserProfile | null);
  /**
   * Whether the account is external.
   */
  'external'?: (boolean);
  /**
   * Whether the user can create groups.
   */
  'canCreateGroup'?: (boolean);
  /**
   * Projects limit.
   */
  'projectsLimit'?: (number);
  '_external'?: "external";
  '_canCreateGroup'?: "canCreateGroup";
  '_projectsLimit'?: "projectsLimit";
}

/**
 * Creates a user (administrators only).
 */
export interface CreateUserRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Login name.
   */
  'username': (string);
  /**
   * E-mail address.
   */
  'email': (string);
  /**
   * Display name.
   */
  'name': (string);
  /**
   * Password in clear; stored only as a salted scrypt digest. Empty = no password login.
   */
  'password': (string);
  /**
   * Make the user an administrator.
   */
  'admin': (boolean);
  /**
   * Mark the e-mail as confirmed.
   */
  'skipConfirmation': (boolean);
  /**
   * Optional profile fields.
   */
  'profile': (_quarry_identity_v1_UserProfile__Output | null);
  /**
   * Whether the account is external.
   */
  'external'?: (boolean);
  /**
   * Whether the user can create groups.
   */
  'canCreateGroup'?: (boolean);
  /**
   * Projects limit.
   */
  'projectsLimit'?: (number);
  '_external'?: "external";
  '_canCreateGroup'?: "canCreateGroup";
  '_projectsLimit'?: "projectsLimit";
}
