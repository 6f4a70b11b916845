// What a link in an approval email may do for whoever opened it, read once per request (the layout
// says why a link is refused, the page refuses it with the right status or shows the card).
import { cache } from "react";
import { AppError } from "@/lib/errors";
import { linkCard, type LinkCard } from "@/lib/approvals/link-decisions";
import { currentUser } from "@/app/_server/caller";

export type LinkState = { ok: true; card: LinkCard } | { ok: false; status: number; message: string };

export const linkState = cache(async (token: string): Promise<LinkState> => {
  const user = await currentUser();
  try {
    return { ok: true, card: await linkCard(token, user?.id ?? null) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
});
