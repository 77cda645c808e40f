"""The QR code the tower draws (firmware/dicetower/ui/qr.py) read back by a standard decoder (ZXing's,
zxing-cpp): every size of address it makes, and the Phones screen of the simulated tower as its PNG
shows it."""

import pytest
from PIL import Image

from dicetower.ui import qr
from dicetower_host import sim
from dicetower_host.sim import picture, web

zxingcpp = pytest.importorskip("zxingcpp")


def decoded(image):
    return [found.text for found in zxingcpp.read_barcodes(image)]


def drawn(size, modules, scale=4, quiet=4):
    image = Image.new("L", ((size + 2 * quiet) * scale,) * 2, 255)
    for y in range(size):
        for x in range(size):
            if modules[y * size + x]:
                image.paste(
                    0, ((x + quiet) * scale, (y + quiet) * scale, (x + quiet + 1) * scale, (y + quiet + 1) * scale)
                )
    return image


@pytest.mark.parametrize(
    "text",
    [
        "http://192.168.4.1/",
        "http://10.0.0.23:8080/",
        "x",
        "http://192.168.178.123:65535/" + "p" * 20,
        "WIFI:T:WPA;S:dicetower-7f3a;P:k7mq2xrtwp;;",
        "b" * 106,
    ],
)
def test_every_size_of_code_reads_back(text):
    size, modules = qr.encode(text)
    assert size in (21, 25, 29, 33, 37)
    assert decoded(drawn(size, modules)) == [text]


def test_a_text_too_long_for_a_small_code_is_refused():
    with pytest.raises(ValueError, match="at most 106 bytes"):
        qr.encode("c" * 107)


def test_the_phones_screen_of_the_sim_reads_back_as_its_address(tmp_path):
    tower = sim.boot("pico_w", seed=3, state_dir=str(tmp_path))
    with web.Served(tower, pin="2468") as served:
        served.call(lambda: tower.presses("bbbbc"))  # the fifth item of the start menu: Phones
        assert served.call(lambda: tower.app.mode) == "phones"
        image = served.call(lambda: picture.render(tower))
        screen = served.call(tower.screen)
    path = tmp_path / "phones.png"
    image.save(path)
    assert decoded(Image.open(path).convert("L")) == [served.url + "/"]
    assert screen[3].startswith("PIN 2468")
