#include "serve/lb_config.h"

#include <gtest/gtest.h>

namespace ptxbench::serve {
namespace {

TEST(LbBackend, ParsesHostPortName) {
  auto b = parse_lb_backend("10.0.0.7:8765:gpu-node-7");
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  EXPECT_EQ(b->host, "10.0.0.7");
  EXPECT_EQ(b->port, 8765);
  EXPECT_EQ(b->name, "gpu-node-7");
  auto v6 = parse_lb_backend("[::1]:9001:n1");
  ASSERT_TRUE(v6.ok()) << v6.error().to_string();
  EXPECT_EQ(v6->host, "[::1]");
  EXPECT_EQ(v6->port, 9001);
}

TEST(LbBackend, NamesWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"n1", "it has no ':'"},
      {"host:n1", "it is not HOST:PORT:NAME"},
      {"host:0:n1", "the port is not a number from 1 to 65535"},
      {"host:70000:n1", "the port is not a number from 1 to 65535"},
      {"host:80x:n1", "the port is not a number"},
      {":80:n1", "the host is not"},
      {"bad host:80:n1", "the host is not"},
      {"h:80:1n", "the name must be 1 to 40 letters"},
      {"h:80:n.1", "the name must be"},
      {"h:80:", "the name must be"}};
  for (const auto& [text, why] : cases) {
    auto b = parse_lb_backend(text);
    ASSERT_FALSE(b.ok()) << text;
    const std::string e = b.error().to_string();
    EXPECT_NE(e.find(why), std::string::npos) << text << ": " << e;
    EXPECT_NE(e.find("HOST:PORT:NAME"), std::string::npos) << e;
  }
}

LbOptions two() {
  LbOptions o;
  o.backends = {{"127.0.0.1", 9001, "n1"}, {"127.0.0.1", 9002, "n2"}};
  return o;
}

TEST(HaproxyConfig, RoutesJobsToTheirInstanceAndBalancesTheRest) {
  LbOptions o = two();
  o.stats = "127.0.0.1:9100";
  auto c = haproxy_config(o);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  for (const char* line :
       {"    bind 127.0.0.1:8765\n", "    balance leastconn\n",
        "    option httpchk GET /v1/health\n",
        "    http-check expect rstring \"\\\"status\\\":\\\"ok\\\"\"\n",
        "    use-server n1 if { path_beg /v1/jobs/n1. }\n",
        "    use-server n2 if { path /v1/jobs } { url_param(ids) -m beg n2. }\n",
        "    server n1 127.0.0.1:9001 check\n", "    server n2 127.0.0.1:9002 check\n",
        "    stats uri /stats\n", "    bind 127.0.0.1:9100\n", "    timeout server 90s\n",
        "    use_backend ptxbench_serve_keyed if { method POST } { path /v1/jobs } "
        "{ req.hdr(Idempotency-Key) -m found }\n",
        "    balance hdr(Idempotency-Key)\n    hash-type consistent\n",
        "    server n1 127.0.0.1:9001 track ptxbench_serve/n1\n"})
    EXPECT_NE(c->find(line), std::string::npos) << line << " missing from\n" << *c;
}

TEST(HaproxyConfig, ResolvesNamesAgainWhenAsked) {
  LbOptions o = two();
  EXPECT_EQ(haproxy_config(o)->find("resolvers"), std::string::npos);
  o.dns = true;
  const std::string c = *haproxy_config(o);
  EXPECT_NE(c.find("maxconn 64 resolvers system init-addr last,libc,none\n"), std::string::npos)
      << c;
  EXPECT_NE(c.find("resolvers system\n    parse-resolv-conf\n"), std::string::npos) << c;
}

TEST(HaproxyConfig, RefusesWhatWouldBreakRouting) {
  LbOptions none;
  EXPECT_NE(haproxy_config(none).error().to_string().find("no --backend"), std::string::npos);
  LbOptions same_name = two();
  same_name.backends[1].name = "n1";
  EXPECT_NE(haproxy_config(same_name).error().to_string().find("two backends are named \"n1\""),
            std::string::npos);
  LbOptions same_address = two();
  same_address.backends[1].port = 9001;
  EXPECT_NE(
      haproxy_config(same_address).error().to_string().find("two backends are 127.0.0.1:9001"),
      std::string::npos);
  LbOptions bad_bind = two();
  bad_bind.bind = "8765";
  EXPECT_NE(haproxy_config(bad_bind).error().to_string().find("--bind \"8765\" is not ADDR:PORT"),
            std::string::npos);
  LbOptions bad_stats = two();
  bad_stats.stats = "x y:1";
  EXPECT_NE(haproxy_config(bad_stats).error().to_string().find("--stats"), std::string::npos);
  LbOptions fast = two();
  fast.check_interval_ms = 5;
  EXPECT_FALSE(haproxy_config(fast).ok());
}

}  // namespace
}  // namespace ptxbench::serve
