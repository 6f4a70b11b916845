"use client";
// Images in model and tool output: a remote image is not fetched until the reader asks for it (a
// prompt injection can otherwise leak chat contents through the image's URL the moment the answer
// renders). data:, blob: and same-origin images show at once; others show their host and a
// "Load image from <host>" button.
import { useState, useSyncExternalStore } from "react";
import { ImageOff } from "lucide-react";
import { Button } from "../ui/button";

const noSubscribe = () => () => {};

/** Whether an image may load without asking: inline data, a blob, or this app's own origin. */
function loadsWithoutAsking(src: string, origin: string | null): boolean {
  if (/^(data:image\/|blob:)/i.test(src)) return true;
  if (/^\/(?![/\\])/.test(src)) return true; // a path on this origin
  if (!origin) return false;
  try {
    return new URL(src).origin === origin;
  } catch {
    return false;
  }
}

function hostOf(src: string): string {
  try {
    return new URL(src).host || "an unknown host";
  } catch {
    return "an unknown host";
  }
}

export function GatedImage({ src, alt, className }: { src?: string | Blob; alt?: string; className?: string }) {
  // The origin is known only in the browser; the server renders the placeholder for absolute URLs.
  const origin = useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => null,
  );
  const [asked, setAsked] = useState(false);
  if (typeof src !== "string" || !src) return null;
  if (asked || loadsWithoutAsking(src, origin)) {
    // eslint-disable-next-line @next/next/no-img-element -- arbitrary URLs from model or tool output
    return <img src={src} alt={alt ?? ""} className={className ?? "max-h-80 max-w-full rounded-md"} referrerPolicy="no-referrer" />;
  }
  const host = hostOf(src);
  return (
    <span
      className="my-1 inline-flex flex-wrap items-center gap-2 rounded-md border border-dashed border-line-strong px-3 py-2 text-sm text-soft"
      data-gated-image={host}
    >
      <ImageOff className="size-4 shrink-0" aria-hidden />
      <span>
        Image{alt ? ` “${alt}”` : ""} from <span className="font-mono">{host}</span>, not loaded
      </span>
      <Button variant="secondary" size="xs" onClick={() => setAsked(true)}>
        Load image from {host}
      </Button>
    </span>
  );
}

/** Streamdown's img override. */
export function MarkdownImage({ src, alt }: React.ImgHTMLAttributes<HTMLImageElement> & { node?: unknown }) {
  return <GatedImage src={src} alt={alt} />;
}
