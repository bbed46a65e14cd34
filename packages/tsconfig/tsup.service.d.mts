import type { Options } from "tsup";
export declare const serviceBundle: Options;
