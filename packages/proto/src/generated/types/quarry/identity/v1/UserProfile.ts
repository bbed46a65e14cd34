// Original file: /work/main/proto/quarry/identity/v1/identity.proto


/**
 * Optional profile fields; absent fields are left unchanged on update.
 */
export interface UserProfile {
  /**
   * Biography.
   */
  'bio'?: (string);
  /**
   * Location.
   */
  'location'?: (string);
  /**
   * Public e-mail.
   */
  'publicEmail'?: (string);
  /**
   * Web site.
   */
  'websiteUrl'?: (string);
  /**
   * Organization.
   */
  'organization'?: (string);
  /**
   * Job title.
   */
  'jobTitle'?: (string);
  /**
   * Pronouns.
   */
  'pronouns'?: (string);
  /**
   * Administrator note.
   */
  'note'?: (string);
  /**
   * Private profile flag.
   */
  'privateProfile'?: (boolean);
  '_bio'?: "bio";
  '_location'?: "location";
  '_publicEmail'?: "publicEmail";
  '_websiteUrl'?: "websiteUrl";
  '_organization'?: "organization";
  '_jobTitle'?: "jobTitle";
  '_pronouns'?: "pronouns";
  '_note'?: "note";
  '_privateProfile'?: "privateProfile";
}

/**
 * Optional profile fields; absent fields are left unchanged on update.
 */
export interface UserProfile__Output {
  /**
   * Biography.
   */
  'bio'?: (string);
  /**
   * Location.
   */
  'location'?: (string);
  /**
   * Public e-mail.
   */
  'publicEmail'?: (string);
  /**
   * Web site.
   */
  'websiteUrl'?: (string);
  /**
   * Organization.
   */
  'organization'?: (string);
  /**
   * Job title.
   */
  'jobTitle'?: (string);
  /**
   * Pronouns.
   */
  'pronouns'?: (string);
  /**
   * Administrator note.
   */
  'note'?: (string);
  /**
   * Private profile flag.
   */
  'privateProfile'?: (boolean);
  '_bio'?: "bio";
  '_location'?: "location";
  '_publicEmail'?: "publicEmail";
  '_websiteUrl'?: "websiteUrl";
  '_organization'?: "organization";
  '_jobTitle'?: "jobTitle";
  '_pronouns'?: "pronouns";
  '_note'?: "note";
  '_privateProfile'?: "privateProfile";
}
