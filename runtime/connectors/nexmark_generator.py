"""Nexmark's events as a pure function of the event index and a configuration.

Event i (0-based) is what Nexmark's generator (nexmark-flink's NexmarkGenerator, as its Flink table source
sets it up: one timeline, first event id 1, first event number 1) emits as its i-th event: a person, an
auction or a bid, chosen by the event id modulo the proportions (1:3:46 by default), with

  - the event time      base time + (1 + i) * (1e6 / first-event.rate) us, truncated to ms (non-decreasing);
  - ids                 persons and auctions numbered from 1000 in the order they are created;
                        sellers and bidders are "hot" people (the first of each hundred, or its second for
                        bidders) or a random active person (the last 1000, plus 10 not created yet), bids go
                        to a hot auction or a random recent one (the last 100, plus 10 not created yet);
  - auction expiry      the auction's time plus 1 ms plus a uniform random length below twice the time
                        Nexmark takes to create 100 more auctions (on average that time);
  - prices              round(10 ** (6 * u) * 100) for a uniform u;
  - channels and urls   half the bids from Google/Facebook/Baidu/Apple with their own url, the rest from
                        one of 10,000 channels `channel-<n>` whose url has, nine times in ten,
                        `&channel_id=<n with its 32 bits reversed>` (q21 extracts it);
  - padding             `extra` strings that bring an event to Nexmark's average sizes (200, 500, 100 bytes).

What differs from Nexmark: its random values come from an unseeded SplittableRandom (another stream each
run); here every event draws from its own splitmix64 stream seeded by (seed, event id), so event i is the
same in every process and any range of indexes can be generated on its own (split across tasks). The
10,000 channel urls and the padding text come from the seed too. Nexmark's padding text has a few
non-letters (its negative remainders); here it is lower-case letters only. Nexmark's quirks are kept:
bidder ids get the first person id added twice (bidders are persons + 1000), and with ids starting at
event id 2 the "hot seller" 1000 of the first hundred persons is never created as a person.

With several Flink source tasks Nexmark runs one timeline per task (each at rate / parallelism); this
generator is Nexmark with parallelism 1 whatever the number of Spark tasks that share its indexes.
It does not write files (demo_data/nexmark.py does) nor read options from SQL (the connector does)."""

import calendar
import datetime as dt
import math
from dataclasses import dataclass

PERSON, AUCTION, BID = 0, 1, 2
FIRST_PERSON_ID = 1000
FIRST_AUCTION_ID = 1000
FIRST_CATEGORY_ID = 10
FIRST_EVENT_ID = 1          # as Nexmark's table source configures its generator
FIRST_EVENT_NUMBER = 1
NUM_CATEGORIES = 5
PERSON_ID_LEAD = 10
AUCTION_ID_LEAD = 10
HOT_SELLER_RATIO = 100
HOT_AUCTION_RATIO = 100
HOT_BIDDER_RATIO = 100
HOT_CHANNELS = ("Google", "Facebook", "Baidu", "Apple")
CHANNELS_NUMBER = 10000
US_STATES = ("AZ", "CA", "ID", "OR", "WA", "WY")
US_CITIES = ("Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle",
             "Kent", "Cheyenne")
FIRST_NAMES = ("Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter")
LAST_NAMES = ("Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris")
PADDING_LENGTH = 1 << 18
# Nexmark bounds an unbounded generator so that its size estimate does not overflow a long
UNBOUNDED_EVENTS = (2 ** 63 - 1) // (50 * 500)

PERSON_FIELDS = ("id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra")
AUCTION_FIELDS = ("id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires", "seller",
                  "category", "extra")
BID_FIELDS = ("auction", "bidder", "price", "channel", "url", "dateTime", "extra")


@dataclass(frozen=True)
class NexmarkConfig:
    """Nexmark's generator settings (the connector's options; defaults as Nexmark's)."""
    events_num: int = 0                 # 0: unbounded
    first_event_rate: int = 10000       # events per second of event time (and of wall-clock time when paced)
    next_event_rate: int = 10000        # accepted as Nexmark does; its generator only uses the first rate
    person_proportion: int = 1
    auction_proportion: int = 3
    bid_proportion: int = 46
    person_avg_size: int = 200
    auction_avg_size: int = 500
    bid_avg_size: int = 100
    hot_auction_ratio: int = 2
    hot_bidders_ratio: int = 4
    hot_sellers_ratio: int = 4
    num_in_flight_auctions: int = 100
    num_active_people: int = 1000
    base_time_ms: int = 0               # event time of event number 0 (ms since the epoch, UTC)
    seed: int = 0

    @property
    def total_proportion(self):
        return self.person_proportion + self.auction_proportion + self.bid_proportion

    @property
    def max_events(self):
        return self.events_num if self.events_num > 0 else UNBOUNDED_EVENTS

    @property
    def inter_event_delay_us(self):
        return 1000000.0 / self.first_event_rate


# --- time and ids: closed forms of the event number / id

def parse_time_ms(text):
    """'2024-06-14 23:59:10[.fff]' (UTC) or milliseconds since the epoch -> ms since the epoch."""
    s = str(text).strip()
    if s.lstrip("-").isdigit():
        return int(s)
    value = dt.datetime.fromisoformat(s.replace("T", " "))
    return calendar.timegm(value.timetuple()) * 1000 + value.microsecond // 1000


def timestamp_for_number(config, number):
    """Event time (ms) of event number `number`, as Nexmark computes it (the product truncated, then / 1000)."""
    return config.base_time_ms + int(number * config.inter_event_delay_us) // 1000


def event_time_ms(config, i):
    return timestamp_for_number(config, FIRST_EVENT_NUMBER + i)


def event_id(i):
    return FIRST_EVENT_ID + FIRST_EVENT_NUMBER + i


def event_type(config, i):
    rem = event_id(i) % config.total_proportion
    if rem < config.person_proportion:
        return PERSON
    if rem < config.person_proportion + config.auction_proportion:
        return AUCTION
    return BID


def last_person_id(config, eid):
    """The last person created at or before event id `eid` (base 0)."""
    epoch, offset = divmod(eid, config.total_proportion)
    if offset >= config.person_proportion:
        offset = config.person_proportion - 1
    return epoch * config.person_proportion + offset


def last_auction_id(config, eid):
    """The last auction created at or before event id `eid` (base 0; -1 before the first)."""
    epoch, offset = divmod(eid, config.total_proportion)
    if offset < config.person_proportion:
        epoch -= 1
        offset = config.auction_proportion - 1
    elif offset >= config.person_proportion + config.auction_proportion:
        offset = config.auction_proportion - 1
    else:
        offset -= config.person_proportion
    return epoch * config.auction_proportion + offset


# --- random draws: one splitmix64 stream per event

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class Draws:
    """A splitmix64 stream: `below(n)` a uniform int in [0, n), `unit()` a float in [0, 1)."""
    __slots__ = ("state",)

    def __init__(self, seed, stream):
        self.state = _mix64((seed * 0xD1B54A32D192ED03 + stream * _GAMMA + 0x632BE59BD9B4E019) & _M64)

    def bits(self):
        self.state = (self.state + _GAMMA) & _M64
        return _mix64(self.state)

    def below(self, n):
        return ((self.bits() >> 11) * n) >> 53

    def unit(self):
        return (self.bits() >> 11) * (1.0 / (1 << 53))

    def string(self, max_length, special=" "):
        """Nexmark's nextString: 3..max_length-1 characters, each a letter or (1 in 13) `special`, trimmed."""
        length = 3 + self.below(max_length - 3)
        chars = []
        while len(chars) < length:
            v = self.bits()
            for _ in range(min(7, length - len(chars))):   # 338 = 13 * 26 outcomes a character
                v, c = divmod(v, 338)
                chars.append(special if c % 13 == 0 else chr(97 + c // 13))
        return "".join(chars).strip(" ")


def java_round(x):
    return int(math.floor(x + 0.5))


def next_price(draws):
    return java_round(10.0 ** (draws.unit() * 6.0) * 100.0)


class _Shared:
    """Values Nexmark makes once per process (urls, channels, padding text): here derived from the seed."""

    def __init__(self, seed):
        d = Draws(seed, -1)
        letters = []
        while len(letters) < PADDING_LENGTH:
            v = d.bits()
            for _ in range(13):        # 26 ** 13 < 2 ** 64
                v, c = divmod(v, 26)
                letters.append(chr(97 + c))
        self.padding = "".join(letters[:PADDING_LENGTH])
        self.hot_urls = tuple(_base_url(d) for _ in HOT_CHANNELS)
        channels = []
        for n in range(CHANNELS_NUMBER):
            url = _base_url(d)
            if d.below(10) > 0:
                url += "&channel_id=%d" % _java_abs_int(_reverse_int_bits(n))
            channels.append(("channel-%d" % n, url))
        self.channels = tuple(channels)


def _base_url(draws):
    return "https://www.nexmark.com/%s/%s/%s/item.htm?query=1" % (
        draws.string(5, "_"), draws.string(5, "_"), draws.string(5, "_"))


def _reverse_int_bits(n):
    r = int("{:032b}".format(n & 0xFFFFFFFF)[::-1], 2)
    return r - (1 << 32) if r >= 1 << 31 else r


def _java_abs_int(v):
    """Math.abs on an int: abs(MIN_VALUE) overflows to MIN_VALUE."""
    return v if v == -(1 << 31) else abs(v)


_SHARED = {}


def shared(seed):
    if seed not in _SHARED:
        _SHARED[seed] = _Shared(seed)
    return _SHARED[seed]


def _extra(draws, padding, current_size, average_size):
    """Nexmark's nextExtra: padding so that current_size + its length is about average_size."""
    if current_size > average_size:
        return ""
    wanted = average_size - current_size
    delta = java_round(wanted * 0.2)
    size = wanted - delta + (draws.below(2 * delta) if delta else 0)
    offset = draws.below(len(padding) - size)
    return padding[offset:offset + size]


def _next_person_id(config, eid, draws):
    """A random active person (base 0), possibly one of the next few not created yet."""
    people = last_person_id(config, eid) + 1
    active = min(people, config.num_active_people)
    return people - active + draws.below(active + PERSON_ID_LEAD)


def _next_auction_id(config, eid, draws):
    """A random auction still likely in flight (base 0), possibly one of the next few not created yet."""
    last = last_auction_id(config, eid)
    low = max(last - config.num_in_flight_auctions, 0)
    return low + draws.below(last - low + 1 + AUCTION_ID_LEAD)


# --- the events; times are ms since the epoch

def person(config, i, draws, ts):
    eid = event_id(i)
    pid = last_person_id(config, eid) + FIRST_PERSON_ID
    name = FIRST_NAMES[draws.below(len(FIRST_NAMES))] + " " + LAST_NAMES[draws.below(len(LAST_NAMES))]
    email = draws.string(7) + "@" + draws.string(5) + ".com"
    card = " ".join("%04d" % draws.below(10000) for _ in range(4))
    city = US_CITIES[draws.below(len(US_CITIES))]
    state = US_STATES[draws.below(len(US_STATES))]
    size = 8 + len(name) + len(email) + len(card) + len(city) + len(state)
    extra = _extra(draws, shared(config.seed).padding, size, config.person_avg_size)
    return (pid, name, email, card, city, state, ts, extra)


def auction(config, i, draws, ts):
    eid = event_id(i)
    aid = last_auction_id(config, eid) + FIRST_AUCTION_ID
    if draws.below(config.hot_sellers_ratio) > 0:
        seller = (last_person_id(config, eid) // HOT_SELLER_RATIO) * HOT_SELLER_RATIO
    else:
        seller = _next_person_id(config, eid, draws)
    seller += FIRST_PERSON_ID
    category = FIRST_CATEGORY_ID + draws.below(NUM_CATEGORIES)
    initial_bid = next_price(draws)
    # an auction lasts on average as long as Nexmark takes to create num_in_flight_auctions more of them
    ahead = (config.num_in_flight_auctions * config.total_proportion) // config.auction_proportion
    horizon = timestamp_for_number(config, FIRST_EVENT_NUMBER + i + ahead) - ts
    expires = ts + 1 + draws.below(max(horizon * 2, 1))
    item = draws.string(20)
    description = draws.string(100)
    reserve = initial_bid + next_price(draws)
    size = 8 + len(item) + len(description) + 8 + 8 + 8 + 8 + 8
    extra = _extra(draws, shared(config.seed).padding, size, config.auction_avg_size)
    return (aid, item, description, initial_bid, reserve, ts, expires, seller, category, extra)


def bid(config, i, draws, ts):
    eid = event_id(i)
    if draws.below(config.hot_auction_ratio) > 0:
        auction_id = (last_auction_id(config, eid) // HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO
    else:
        auction_id = _next_auction_id(config, eid, draws)
    auction_id += FIRST_AUCTION_ID
    if draws.below(config.hot_bidders_ratio) > 0:
        bidder = (last_person_id(config, eid) // HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1
    else:
        bidder = _next_person_id(config, eid, draws)
    bidder += FIRST_PERSON_ID
    price = next_price(draws)
    common = shared(config.seed)
    if draws.below(2) > 0:
        k = draws.below(len(HOT_CHANNELS))
        channel, url = HOT_CHANNELS[k], common.hot_urls[k]
    else:
        channel, url = common.channels[draws.below(CHANNELS_NUMBER)]
    bidder += FIRST_PERSON_ID      # Nexmark adds it a second time
    extra = _extra(draws, common.padding, 8 + 8 + 8 + 8, config.bid_avg_size)
    return (auction_id, bidder, price, channel, url, ts, extra)


def event(config, i):
    """Event i -> (event_type, person, auction, bid): one of the three a tuple (fields in the order of
    PERSON_FIELDS / AUCTION_FIELDS / BID_FIELDS, times in ms), the other two None."""
    kind = event_type(config, i)
    draws = Draws(config.seed, event_id(i))
    ts = event_time_ms(config, i)
    if kind == PERSON:
        return (PERSON, person(config, i, draws, ts), None, None)
    if kind == AUCTION:
        return (AUCTION, None, auction(config, i, draws, ts), None)
    return (BID, None, None, bid(config, i, draws, ts))


def events(config, start, end):
    """Events start..end-1 (clipped to the configured number of events)."""
    end = min(end, config.max_events)
    for i in range(start, end):
        yield event(config, i)
