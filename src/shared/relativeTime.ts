/**
 * "just now", "5 minutes ago", "yesterday", "3 weeks ago": one wording for the dashboard and for the
 * session-start context the agent reads.
 */
export function relativeTime(at: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  const days = Math.floor(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 14) return `${days} days ago`;
  return `${Math.floor(days / 7)} weeks ago`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function startOfDay(at: number): number {
  return new Date(at).setHours(0, 0, 0, 0);
}

/**
 * The local time of day, with the day when it is not today: "14:32", "yesterday 14:32", "Mon 14:32" within
 * the week, "12 Mar 14:32" this year, "12 Mar 2025 14:32" before. 24-hour, the same in every locale.
 */
export function clockTime(at: number, now: number): string {
  const when = new Date(at);
  const time = `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
  // Calendar days, not 24-hour spans; rounded since a day with a daylight-saving change lasts 23 or 25 hours.
  const days = Math.round((startOfDay(now) - startOfDay(at)) / 86_400_000);
  if (days === 0) return time;
  if (days === 1) return `yesterday ${time}`;
  if (days > 1 && days < 7) return `${WEEKDAYS[when.getDay()]} ${time}`;
  const date = `${when.getDate()} ${MONTHS[when.getMonth()]}`;
  const year = when.getFullYear() === new Date(now).getFullYear() ? '' : ` ${when.getFullYear()}`;
  return `${date}${year} ${time}`;
}
