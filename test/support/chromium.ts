// The Chromium the e2e tests and the bench drive: PLAYWRIGHT_CHROMIUM_EXECUTABLE when set, else Debian's
// headless shell (chromium-headless-shell, what Playwright itself uses for headless runs: the same Blink
// without the desktop browser around it, about a quarter less CPU for the e2e suite than the full
// browser's headless mode), else Debian's Chromium, else Playwright's own download (undefined).
import fs from "node:fs";

const CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

export const CHROMIUM_EXECUTABLE: string | undefined = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || CANDIDATES.find((file) => fs.existsSync(file));
