// The full report as text: header, sections 1-7 (those of the scenarios that ran), and the aims.
import { aimsSection } from "./aims";
import { indexingSection } from "./indexing";
import { burstsSection, writesSection } from "./load";
import type { RunReport } from "./model";
import { soakSection } from "./soak";
import { longChatSection, storedSection } from "./storage";
import { cpuSection, header, oneStreamSection } from "./streams";

export function runText(r: RunReport): string {
  return [
    ...header(r),
    ...oneStreamSection(r),
    ...cpuSection(r),
    ...writesSection(r),
    ...burstsSection(r),
    ...storedSection(r),
    ...longChatSection(r),
    ...indexingSection(r),
    ...soakSection(r),
    ...aimsSection(r),
  ].join("\n");
}
