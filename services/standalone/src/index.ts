export { startStack, type RunningStack, type StackOptions } from "./stack.ts";
