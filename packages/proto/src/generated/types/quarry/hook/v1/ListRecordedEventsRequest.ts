// Original file: /work/main/proto/quarry/hook/v1/hook.proto


/**
 * Lists recorded events, newest first.
 */
export interface ListRecordedEventsRequest {
  /**
   * Only this event name; empty = all.
   */
  'eventName'?: (string);
  /**
   * Maximum number to return; 0 = 100.
   */
  'limit'?: (number);
}

/**
 * Lists recorded events, newest first.
 */
export interface ListRecordedEventsRequest__Output {
  /**
   * Only this event name; empty = all.
   */
  'eventName': (string);
  /**
   * Maximum number to return; 0 = 100.
   */
  'limit': (number);
}
