// Original file: /work/main/proto/quarry/repo/v1/repo.proto

import type { Identity as _quarry_repo_v1_Identity, Identity__Output as _quarry_repo_v1_Identity__Output } from '../../../quarry/repo/v1/Identity';
import type { Long } from '@grpc/proto-loader';

/**
 * Creates a bare repository for a new project.
 */
export interface CreateRepositoryRequest {
  /**
   * Owning project id.
   */
  'projectId'?: (number | string | Long);
  /**
   * Repository path relative to the storage root, e.g. "@hashed/ab/cd/<sha256>.git".
   */
  'diskPath'?: (string);
  /**
   * Branch HEAD points at, e.g. "main".
   */
  'defaultBranch'?: (string);
  /**
   * Create a first commit with README.md on the default branch.
   */
  'initializeWithReadme'?: (boolean);
  /**
   * Author and committer of the README commit.
   */
  'author'?: (_quarry_repo_v1_Identity | null);
  /**
   * Project name, used as the README title.
   */
  'projectName'?: (string);
  /**
   * Project description, added to the README when present.
   */
  'projectDescription'?: (string);
}

/**
 * Creates a bare repository for a new project.
 */
export interface CreateRepositoryRequest__Output {
  /**
   * Owning project id.
   */
  'projectId': (number);
  /**
   * Repository path relative to the storage root, e.g. "@hashed/ab/cd/<sha256>.git".
   */
  'diskPath': (string);
  /**
   * Branch HEAD points at, e.g. "main".
   */
  'defaultBranch': (string);
  /**
   * Create a first commit with README.md on the default branch.
   */
  'initializeWithReadme': (boolean);
  /**
   * Author and committer of the README commit.
   */
  'author': (_quarry_repo_v1_Identity__Output | null);
  /**
   * Project name, used as the README title.
   */
  'projectName': (string);
  /**
   * Project description, added to the README when present.
   */
  'projectDescription': (string);
}
