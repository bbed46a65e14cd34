// Original file: /work/main/proto/quarry/hook/v1/hook.proto

import type { RecordedEvent as _quarry_hook_v1_RecordedEvent, RecordedEvent__Output as _quarry_hook_v1_RecordedEvent__Output } from '../../../quarry/hook/v1/RecordedEvent';

/**
 * Recorded events.
 */
export interface ListRecordedEventsResponse {
  /**
   * Newest first.
   */
  'events'?: (_quarry_hook_v1_RecordedEvent)[];
}

/**
 * Recorded events.
 */
export interface ListRecordedEventsResponse__Output {
  /**
   * Newest first.
   */
  'events': (_quarry_hook_v1_RecordedEvent__Output)[];
}
