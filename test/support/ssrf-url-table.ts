/**
 * Issue 17's SSRF table: URLs every entry point that fetches for a user must refuse before connecting. `port` is
 * a local server's port, so a loopback spelling that slipped through would reach it (and be counted).
 */
export function buildSsrfUrlTable(port: number): Array<{ name: string; url: string }> {
  const loopback = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "127.1",
    "0.0.0.0",
    "127.0.0.2",
    "[::]",
    "[0:0:0:0:0:ffff:7f00:1]",
  ].map((host) => ({ name: `loopback ${host}`, url: `http://${host}:${port}/image.png` }));
  const addresses = [
    ["private 10/8", "10.0.0.1"],
    ["private 172.16/12", "172.16.5.4"],
    ["private 192.168/16", "192.168.1.1"],
    ["CGNAT 100.64/10", "100.64.0.1"],
    ["link-local", "169.254.1.1"],
    ["metadata", "169.254.169.254"],
    ["metadata (IPv6 mapped)", "[::ffff:169.254.169.254]"],
    ["IPv6 ULA", "[fd00::1]"],
    ["IPv6 link-local", "[fe80::1]"],
    ["NAT64 of loopback", "[64:ff9b::7f00:1]"],
    ["NAT64 of private", "[64:ff9b::a00:1]"],
    ["6to4 of loopback", "[2002:7f00:1::]"],
    ["6to4 of private", "[2002:c0a8:101::]"],
    ["Teredo", "[2001:0::1]"],
    ["multicast", "224.0.0.1"],
    ["IPv6 multicast", "[ff02::1]"],
    ["broadcast", "255.255.255.255"],
  ].map(([name, host]) => ({ name: name!, url: `http://${host}:${port}/image.png` }));
  const schemes = [
    "file:///etc/passwd",
    "ftp://example.com/a.png",
    "gopher://example.com/",
    "dict://example.com:11211/",
  ]
    .concat(["ldap://example.com/", "javascript:alert(1)", "data:image/png;base64,iVBORw0KGgo=", "jar:http://x/!/"])
    .map((url) => ({ name: `scheme ${url.split(":")[0]}`, url }));
  const credentials = [
    { name: "credentials", url: "http://user:password@example.com/image.png" },
    { name: "credentials smuggling a host", url: `http://example.com@127.0.0.1:${port}/image.png` },
    { name: "user only", url: "http://user@example.com/image.png" },
  ];
  return [...loopback, ...addresses, ...schemes, ...credentials];
}
