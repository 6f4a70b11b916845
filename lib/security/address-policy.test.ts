// IPv6 forms that carry an IPv4 address inside are judged as the IPv4 address they carry, so a
// refused IPv4 target (cloud metadata, link-local, unspecified, private without the opt-in) cannot be
// reached by writing it as IPv4-mapped, IPv4-compatible, NAT64, 6to4 or Teredo IPv6.
import { describe, expect, it } from "vitest";
import { judgeAddress, judgeUrl } from "./address-policy";

/** 169.254.169.254 (a9fe:a9fe) and 10.0.0.5 (0a00:0005) in each IPv6 form. */
const METADATA_FORMS = [
  "::ffff:169.254.169.254", // IPv4-mapped
  "::169.254.169.254", // IPv4-compatible (deprecated, still parsed)
  "::a9fe:a9fe",
  "::ffff:0:169.254.169.254", // IPv4-translated (SIIT)
  "64:ff9b::169.254.169.254", // NAT64 well-known prefix
  "64:ff9b:1::a9fe:a9fe", // NAT64 local-use prefix
  "2002:a9fe:a9fe::1", // 6to4
  "2001:0:4136:e378:8000:63bf:5601:5601", // Teredo, client 169.254.169.254 (inverted bits)
  "2001:0:a9fe:a9fe::1", // Teredo, server 169.254.169.254
];

describe("IPv6 addresses that embed an IPv4 address", () => {
  it("refuses every form that carries a metadata or link-local IPv4 address, even with the private opt-in", () => {
    for (const address of METADATA_FORMS) {
      expect(judgeAddress(address, true), address).toMatchObject({ ok: false, reason: expect.stringContaining("169.254.169.254") });
      expect(judgeUrl(`http://[${address}]/`, true), address).toMatchObject({ ok: false });
      expect(judgeUrl(`http://[${address}]/`, false), address).toMatchObject({ ok: false });
    }
  });

  it("refuses the unspecified IPv4 address in IPv6 forms", () => {
    for (const address of ["64:ff9b::0.0.0.0", "2002:0:0::1", "::ffff:0.0.0.0"]) {
      expect(judgeAddress(address, true), address).toMatchObject({ ok: false });
    }
  });

  it("judges an embedded private IPv4 address as private (refused without the opt-in)", () => {
    for (const address of ["::10.0.0.5", "64:ff9b::10.0.0.5", "2002:0a00:0005::1", "2001:0:4136:e378:8000:63bf:f5ff:fffa"]) {
      expect(judgeAddress(address, false), address).toMatchObject({ ok: false, reason: expect.stringContaining("PARLEY_ALLOW_PRIVATE_URLS") });
    }
  });

  it("keeps loopback and ordinary public IPv6 allowed", () => {
    expect(judgeAddress("::1", false)).toEqual({ ok: true });
    expect(judgeAddress("::ffff:127.0.0.1", false)).toEqual({ ok: true });
    expect(judgeAddress("2606:4700::1111", false)).toEqual({ ok: true });
    expect(judgeAddress("2a00:1450:4001:80b::200e", false)).toEqual({ ok: true });
  });
});
