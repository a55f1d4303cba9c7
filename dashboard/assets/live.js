// Live following: a page that holds an element with `data-live-feed` (the path of a server-sent
// event stream, dashboard/live.py) and `data-live-store` (the id of a dcc.Store) has the stream
// open while it is shown; what arrives is written into that store, whose server callback redraws
// what grew. No polling: the server sends each append as it is stored, and the browser's
// EventSource reconnects by itself (sending the last event's id, so nothing is lost).
(function () {
    var open = null;  // {element, url, source, timer}

    function schedule(feed) {
        // the events of one append come together: one write of the store for all of them
        if (feed.timer) {
            return;
        }
        feed.timer = window.setTimeout(function () {
            feed.timer = null;
            var set = window.dash_clientside && window.dash_clientside.set_props;
            if (set) {
                set(feed.element.getAttribute("data-live-store"), {data: {last: feed.last, at: Date.now()}});
            }
        }, 50);
    }

    function follow() {
        var element = document.querySelector("[data-live-feed]");
        var url = element ? element.getAttribute("data-live-feed") : null;
        if (open && open.element === element && open.url === url) {
            return;
        }
        if (open) {
            open.source.close();
            window.clearTimeout(open.timer);
            open = null;
        }
        if (!url) {
            return;
        }
        var feed = {element: element, url: url, source: new EventSource(url), timer: null, last: null};
        feed.source.onmessage = function (message) {
            feed.last = message.lastEventId;
            schedule(feed);
        };
        open = feed;
    }

    // pages come and go without a reload (Dash's router): follow the element, not the URL
    new MutationObserver(follow).observe(document.documentElement, {childList: true, subtree: true});
    window.addEventListener("pagehide", function () {
        if (open) {
            open.source.close();
            open = null;
        }
    });
    window.addEventListener("pageshow", follow);
    follow();
})();
