/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), read in UTC: what a
 * job's `schedule` says. Each field is `*`, a number, a range `a-b`, any of those with a step
 * (`*\/15`, `0-30/10`, `5/20`), or a comma list of them. Day-of-week is 0-7, Sunday being 0 or
 * 7. As in Vixie cron, when both day fields are restricted a day matching either one matches.
 */
export interface Cron {
  readonly expression: string;
  /** The first whole UTC minute strictly after `after` that the expression matches. */
  next(after: Date): Date;
}

interface Field {
  name: string;
  min: number;
  max: number;
}

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
];

const MINUTE_MS = 60_000;
/** A search that finds nothing in this many years has no match (`0 0 30 2 *`, 30 February). */
const SEARCH_YEARS = 8;

export class CronError extends Error {}

export function parseCron(expression: string): Cron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new CronError(`"${expression}" is not a cron expression: it needs 5 fields (minute hour day-of-month month day-of-week), it has ${parts.length}`);
  const [minutes, hours, days, months, weekdays] = parts.map((part, i) => parseField(part, FIELDS[i] as Field, expression)) as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (weekdays.delete(7)) weekdays.add(0);
  // A day field written from `*` (`*`, `*/2`) leaves the day to the other field, as in Vixie cron.
  const anyDay = parts[2]?.startsWith('*') === true;
  const anyWeekday = parts[4]?.startsWith('*') === true;
  const dayMatches = (date: Date) => {
    const byDay = days.has(date.getUTCDate());
    const byWeekday = weekdays.has(date.getUTCDay());
    if (anyDay && anyWeekday) return true;
    if (anyDay) return byWeekday;
    if (anyWeekday) return byDay;
    return byDay || byWeekday;
  };

  return {
    expression,
    next(after) {
      const limit = after.getTime() + SEARCH_YEARS * 366 * 24 * 60 * MINUTE_MS;
      // The next whole minute, then forward a month, a day, an hour or a minute at a time.
      const at = new Date(Math.floor(after.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS);
      while (at.getTime() <= limit) {
        if (!months.has(at.getUTCMonth() + 1)) {
          at.setUTCMonth(at.getUTCMonth() + 1, 1);
          at.setUTCHours(0, 0, 0, 0);
        } else if (!dayMatches(at)) {
          at.setUTCDate(at.getUTCDate() + 1);
          at.setUTCHours(0, 0, 0, 0);
        } else if (!hours.has(at.getUTCHours())) {
          at.setUTCHours(at.getUTCHours() + 1, 0, 0, 0);
        } else if (!minutes.has(at.getUTCMinutes())) {
          at.setUTCMinutes(at.getUTCMinutes() + 1, 0, 0);
        } else {
          return at;
        }
      }
      throw new CronError(`"${expression}" matches no date`);
    },
  };
}

function parseField(text: string, field: Field, expression: string): Set<number> {
  const values = new Set<number>();
  const fail = (why: string) => new CronError(`"${expression}" is not a cron expression: its ${field.name} field "${text}" ${why}`);
  for (const item of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!match) throw fail(`is not *, a number, a range a-b or one of those with a /step (${field.min}-${field.max})`);
    const [, all, from, to, step] = match;
    const start = all === '*' ? field.min : Number(from);
    // `5/20` runs from 5 to the field's end; `5` alone is just 5.
    const end = all === '*' ? field.max : to !== undefined ? Number(to) : step !== undefined ? field.max : start;
    const by = step === undefined ? 1 : Number(step);
    if (start < field.min || end > field.max) throw fail(`is outside ${field.min}-${field.max}`);
    if (start > end) throw fail(`has a range that ends before it starts`);
    if (by < 1) throw fail(`has a step of 0`);
    for (let value = start; value <= end; value += by) values.add(value);
  }
  return values;
}
