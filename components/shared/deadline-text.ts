// When a call waiting for approval is denied automatically, as the approval card and the admins' inbox
// say it: "by 14:05" today, "by 14:05 on 28/11/2026" another day (the browser's locale).
export function deadlineText(iso: string): string {
  const at = new Date(iso);
  return `by ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}${at.toDateString() === new Date().toDateString() ? "" : ` on ${at.toLocaleDateString()}`}`;
}
