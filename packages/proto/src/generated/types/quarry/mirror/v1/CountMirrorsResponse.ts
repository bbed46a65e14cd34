// Original file: /work/main/proto/quarry/mirror/v1/mirror.proto

import type { Long } from '@grpc/proto-loader';

/**
 * How many mirrors a project has.
 */
export interface CountMirrorsResponse {
  /**
   * Number of push mirrors configured.
   */
  'count'?: (number | string | Long);
}

/**
 * How many mirrors a project has.
 */
export interface CountMirrorsResponse__Output {
  /**
   * Number of push mirrors configured.
   */
  'count': (number);
}
