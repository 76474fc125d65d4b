#!/usr/bin/env python3
"""page_requests.py NETLOG.json: prints every network request a page loaded from a file://
URL made (one URL a line), read from Chromium's net log (--log-net-log). The browser's own
background requests (component updates, the clock, accounts) are not the page's: their
network isolation key is not the file:// page's, so they are left out."""
import json
import sys

log = json.load(open(sys.argv[1]))
types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
for event in log["events"]:
    params = event.get("params", {})
    if types.get(event["type"]) != "URL_REQUEST_START_JOB":
        continue
    url = params.get("url", "")
    if params.get("network_isolation_key", "").startswith("file://") and not url.startswith("file:"):
        print(url)
