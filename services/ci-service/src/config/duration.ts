/**
 * GitLab reads `timeout`, `start_in` and `artifacts:expire_in` with ChronicDuration:
 * "3600" (seconds), "1h 30m", "90 minutes", "1 hour and 30 mins", "1.5 hours", "2 weeks",
 * "01:30:00". This is the same human duration grammar, in whole seconds.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7 * DAY,
  wk: 7 * DAY,
  wks: 7 * DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
  mo: 30 * DAY,
  mos: 30 * DAY,
  month: 30 * DAY,
  months: 30 * DAY,
  // ChronicDuration's year is 365.25 days.
  y: 31_557_600,
  yr: 31_557_600,
  yrs: 31_557_600,
  year: 31_557_600,
  years: 31_557_600,
};

/** Seconds in a GitLab duration string or number, or null when it is not a duration. */
export function parseDuration(input: unknown): number | null {
  if (typeof input === "number") return Number.isFinite(input) && input >= 0 ? Math.round(input) : null;
  if (typeof input !== "string") return null;
  const text = input.trim().toLowerCase();
  if (text === "") return null;

  const clock = /^(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text);
  if (clock) {
    const [, h, m, s] = clock;
    return Math.round(Number(h ?? 0) * HOUR + Number(m) * MINUTE + Number(s));
  }

  // Filler words and separators carry no meaning ("1 hour and 30 minutes", "1h, 30m").
  const cleaned = text.replace(/\band\b/g, " ").replace(/,/g, " ");
  const token = /\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*/y;
  let total = 0;
  let matched = 0;
  let pos = 0;
  while (pos < cleaned.length) {
    token.lastIndex = pos;
    const m = token.exec(cleaned);
    if (!m) return null;
    const unit = m[2] === "" ? 1 : UNITS[m[2]!];
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    matched++;
    pos = token.lastIndex;
  }
  return matched > 0 ? Math.round(total) : null;
}
