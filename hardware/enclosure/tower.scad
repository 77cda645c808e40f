// dicetower: the tower, parametric. Units are mm.
//
// A base holds the electronics (open at the bottom, closed by the plate
// printed beside it); the OLED and the buttons look out of its front, the
// USB plug goes in at the back, the LED ring is glued under the tray floor
// and shines through a thin skin of it. Dice drop into the shaft on top,
// bounce off two baffles and roll out onto the tray.
//
// `dicetower hardware enclosure --board NAME` sets every part size below
// from hardware/parts.json and boards/NAME.json (with -D); the defaults are
// the Pico profile's, so the file also opens as it is in OpenSCAD.

oled_window = [21.74, 10.86];  // the OLED's visible area
oled_board = [27.3, 27.8];     // the OLED module's board
ring_od = 37.0;                // the LED ring's outer diameter
button_hole = 12.0;            // the buttons' panel hole
button_count = 3;              // one hole per button in the profile
usb_plug = [11.0, 7.5];        // the USB plug's body, width and height
usb_above = 3.5;               // the plug's centre above the plate the controller lies on
clearance = 0.4;               // added round every opening so the part fits
with_plate = true;             // false for the preview picture: the body alone

wall = 2.4;
top = 4;          // the tray floor, with the ring's pocket in it
skin = 0.8;       // what is left of the floor over the ring: thin enough to glow
plate = 2.4;      // the bottom plate
base_h = 55;
gap = 8;          // between button holes
width = max(80, button_count * (button_hole + gap) + gap, ring_od + 24);
tray_d = ring_od + 20;
tower_d = 60;
tower_h = 110;
lip_h = 10;
exit_h = 30;
$fn = 48;

oled_w = oled_window[0] + 2 * clearance;
oled_h = oled_window[1] + 2 * clearance;
oled_z = base_h - top - oled_board[1] / 2 - 1;
button_d = button_hole + 2 * clearance;
button_z = plate + (oled_z - oled_board[1] / 2 - plate) / 2;
ring_d = ring_od + 2 * clearance;
usb_w = usb_plug[0] + 2 * clearance;
usb_top = plate + usb_above + usb_plug[1] / 2 + clearance;

function button_x(i) = width / 2 + (i - (button_count - 1) / 2) * (button_hole + gap);

// Where each opening is, for the render's check (host_tools/enclosure.py reads these lines).
echo(opening = "oled", at = [width / 2, wall / 2, oled_z], size = [oled_w, oled_h]);
for (i = [0 : button_count - 1])
    echo(opening = "button", at = [button_x(i), wall / 2, button_z], size = [button_d, button_d]);
echo(opening = "ring", at = [width / 2, tray_d / 2, base_h - top + (top - skin) / 2], size = [ring_d, ring_d]);
echo(opening = "usb", at = [width / 2, tray_d + tower_d - wall / 2, usb_top / 2], size = [usb_w, usb_top]);
echo(skin_at = [width / 2, tray_d / 2, base_h - skin / 2]);

// A plate across the shaft, in the y-z plane, from (y0, z0) sloping by `drop` over `run`.
module baffle(y0, z0, run, drop) {
    translate([wall, 0, 0]) rotate([90, 0, 90])
        linear_extrude(width - 2 * wall)
            polygon([[y0, z0], [y0 + run, z0 - drop], [y0 + run, z0 - drop - 3], [y0, z0 - 3]]);
}

module body() {
    shaft_y0 = tray_d + wall;
    shaft_y1 = tray_d + tower_d - wall;
    difference() {
        union() {
            cube([width, tray_d + tower_d, base_h]);
            translate([0, tray_d, 0]) cube([width, tower_d, base_h + tower_h]);
            translate([0, 0, base_h]) difference() {
                cube([width, tray_d + 1, lip_h]);
                translate([wall, wall, -1]) cube([width - 2 * wall, tray_d + 2, lip_h + 2]);
            }
        }
        // the electronics' room, open at the bottom
        translate([wall, wall, -1]) cube([width - 2 * wall, tray_d + tower_d - 2 * wall, base_h - top + 1]);
        // the shaft and its exit onto the tray
        translate([wall, shaft_y0, base_h]) cube([width - 2 * wall, tower_d - 2 * wall, tower_h + 1]);
        translate([wall, tray_d - 1, base_h]) cube([width - 2 * wall, wall + 2, exit_h]);
        // the openings
        translate([width / 2 - oled_w / 2, -1, oled_z - oled_h / 2]) cube([oled_w, wall + 2, oled_h]);
        for (i = [0 : button_count - 1])
            translate([button_x(i), -1, button_z]) rotate([-90, 0, 0]) cylinder(d = button_d, h = wall + 2);
        translate([width / 2, tray_d / 2, base_h - top - 1]) cylinder(d = ring_d, h = top - skin + 1);
        translate([width / 2 - usb_w / 2, tray_d + tower_d - wall - 1, -1]) cube([usb_w, wall + 2, usb_top + 1]);
    }
    // inside the shaft: two baffles and a ramp down to the exit
    baffle(shaft_y1 - 28, base_h + tower_h - 25, 28, -14);
    baffle(shaft_y0, base_h + tower_h - 55, 28, 14);
    translate([wall, 0, 0]) rotate([90, 0, 90])
        linear_extrude(width - 2 * wall)
            polygon([[shaft_y0 - 0.01, base_h], [shaft_y1 + 0.01, base_h], [shaft_y1 + 0.01, base_h + 20]]);
}

// The plate that closes the bottom, printed beside the body.
module bottom_plate() {
    translate([0, tray_d + tower_d + 10, 0])
        cube([width - 2 * wall - 2 * clearance, tray_d + tower_d - 2 * wall - 2 * clearance, plate]);
}

body();
if (with_plate) bottom_plate();
