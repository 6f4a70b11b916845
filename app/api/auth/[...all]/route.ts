// better-auth's HTTP endpoints (session, sign-out, sign-in). Sign-up is refused here: accounts are
// made only by first-run setup and invite links, which call better-auth from the server.
import { getAuth } from "@/lib/auth/auth";
import { errorResponse } from "@/lib/http";
import { Forbidden } from "@/lib/errors";

async function dispatch(req: Request): Promise<Response> {
  if (new URL(req.url).pathname.startsWith("/api/auth/sign-up")) {
    return errorResponse(Forbidden("Accounts are created through an invite link."));
  }
  try {
    return await (await getAuth()).handler(req);
  } catch (err) {
    return errorResponse(err);
  }
}

export const GET = dispatch;
export const POST = dispatch;
